"""yaten's build-time generator: spec/*.yaml -> generated/ (run as ``python -m codegen``)."""
