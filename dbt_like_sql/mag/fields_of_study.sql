-- Level-0 fields of study of the catalogue with their static partition key and number of works.
SELECT * FROM lake.mag_fields_of_study
