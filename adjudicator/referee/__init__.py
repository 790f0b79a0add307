"""The referee's side of the protocol: game directories, the journal, adjudication
of submissions, and offline verification (docs/protocol.md §2, §6, §8)."""
