"""The services the run's stages share: the HTTP client with its retries and
transport, where a service is reached, the failures of a call, the one registry of
secrets and where they come from, user code off the event loop and its imports, and
artefacts written whole."""
