-- The active judgements of every rule set and annotator: judge events not retracted by an undo event.
SELECT e.rule_set, e.annotator, e.item_id, e.extracted_correctly, e.markers_removed, e.comment, e."at" AS judged_at
FROM lake.judgement_events AS e
WHERE e.action = 'judge'
  AND NOT EXISTS (
      SELECT 1 FROM lake.judgement_events AS u
      WHERE u.action = 'undo' AND u.rule_set = e.rule_set AND u.annotator = e.annotator AND u.undoes = e.seq
  )
