-- ROUGE-SciQFS Table 1 per split and overall: examples, papers, sentences per example, positive labels per example before and after the greedy ROUGE augmentation.
SELECT * FROM lake.sciqfs_statistics
