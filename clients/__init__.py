"""What a user of the Croupier contract needs: a client, the adapter kit, audit logs, the demo engine."""
