"""The generated MAG dump and OpenAlex snapshot give the same catalogue, damage counted."""

from citeworth_assets.lib.mag.catalogue import (
    mag_work_references,
    mag_works,
    openalex_works,
)
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.samples.mag import (
    NOISE_MAG_ID,
    sample_works,
    write_mag_dump,
    write_openalex_snapshot,
)


def test_generated_mag_and_openalex_agree(tmp_path):
    works = sample_works(7, 60)
    references = [(works[0].mag_id, works[1].mag_id), (works[2].mag_id, works[1].mag_id)]
    write_mag_dump(tmp_path / "mag", works, references)
    write_openalex_snapshot(tmp_path / "openalex", works, references, per_part=25)
    log = IssueLog()
    mag = {w["mag_id"]: w for w in mag_works(tmp_path / "mag", log)}
    # every work (old and new column layouts), plus the damaged line that is kept with U+FFFD
    assert len(mag) == len(works) + 1
    assert log.counts == {"too_few_columns": 1, "invalid_utf8": 1, "bad_value": 1}
    openalex = {w["mag_id"]: w for w in openalex_works(tmp_path / "openalex", IssueLog())}
    assert set(openalex) == {str(w.mag_id) for w in works}
    for mag_id, work in openalex.items():
        for key in ("normalised_title", "year", "authors", "citation_count", "doi", "fields"):
            assert mag[mag_id][key] == work[key], (mag_id, key)
    assert mag[str(NOISE_MAG_ID)]["normalised_title"] == "hep th"
    longer = [w for w in works if w.kind == "longer"]
    shorter = {w.title for w in works if w.kind == "shorter"}
    assert all(w.title.split(":")[0] in shorter for w in longer)
    assert len(list(mag_work_references(tmp_path / "mag", IssueLog()))) == 2
