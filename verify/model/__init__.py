"""The network: its specification and seeded integer weights, the forward pass of eq. 3 over any exact
ring, input embeddings, the output polynomial y_p^i, partitions of the positions, and the real BERT
layer (floating point)."""
