"""The Discord adapter: thin glue from interactions to the service and back."""
