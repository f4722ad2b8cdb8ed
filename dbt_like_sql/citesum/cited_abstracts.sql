-- Every paper linked from a citation span of any shard, with title, abstract and fields: what CiteSum scores against.
SELECT * FROM lake.citesum_cited_abstracts
