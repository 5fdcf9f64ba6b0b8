"""The tool kinds that search documents (vector stores, hierarchical documents) and
what they stand on: ingestion, embeddings and their cache, BM25, the vector stores."""
