"""Where a vector store tool keeps its vectors: one class per database, one interface."""
