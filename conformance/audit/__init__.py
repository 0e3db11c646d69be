"""Audit replay: verify a production log of RoundRecords against the published rules.

The log is read as a stream. The main process runs every check that needs the log's order
(``stream.LogChecks``: the hash chain, sequence numbers and times, round ids, signed
checkpoints and each roulette table's board) and cuts the records into coarse shards that
workers check one record at a time (``replay.verify_shard``: the record against itself, then
the replay through the oracle): a process pool by default, or a Dask cluster
(``executor``). Every executor runs the same code, and shard results are merged in log order,
so the report is the same whatever the executor, the number of workers and the shard size.

``verify`` runs a whole log (``audit_log``) and writes its report; ``fairness`` turns the
workers' tallies into returns and fairness figures; ``recall`` reads a table's last rounds
back.
"""
