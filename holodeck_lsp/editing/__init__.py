"""Editor queries over a document: completion, hover, navigation, outline, fixes."""
