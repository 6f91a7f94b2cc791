"""yaten.utils: hooks and (later) data loading."""
