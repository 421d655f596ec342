"""The rules of ToraBato as functions on a state, one module per topic."""
