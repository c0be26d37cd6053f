"""selectors of the companion app, one module per area."""
