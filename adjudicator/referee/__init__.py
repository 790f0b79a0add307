"""The referee's side of the protocol: game directories, the journal, adjudication
of submissions, and offline verification (DESIGN §5, §6, §8)."""
