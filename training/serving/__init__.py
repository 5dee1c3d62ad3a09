"""The resident serving process of deployments (issue 16): one release loaded once, answering
contracts/deployments/serving.ts over a private Unix socket. Two recipe folders (tabular/,
llm/) share this code and differ only in the Python environment they run in."""
