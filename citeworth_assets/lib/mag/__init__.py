"""Microsoft Academic Graph dumps and OpenAlex snapshots, read into one works catalogue (Saier 2019 ch. 4)."""
