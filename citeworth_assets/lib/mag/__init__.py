"""Microsoft Academic Graph dumps and OpenAlex snapshots, read into one works catalogue (seeds/004 ch. 4)."""
