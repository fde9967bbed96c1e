"""Exact-cover encoders and decoders built on the public dlx API."""
