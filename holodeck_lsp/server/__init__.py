"""The language server: pygls at the edge, the validation core behind it.

Architecture. One `Session` holds the global state (client features resolved once at
`initialize`, settings, open documents, the latest validation results). Every
validation runs on an immutable snapshot (the document's text and version plus the
texts of the other open buffers) in a worker process (a parse holds the interpreter
lock, so a thread would stall the event loop; the process also caps its memory; a
second one takes the jobs that come while the first is busy, and one past the time
limit is killed with its job), and a result is applied only when it is still about the
latest version of its document;
queries that parse a whole document run on a worker thread, and queued work for text
the editor has replaced is dropped. `protocol.py` answers every request pygls cannot
read with its JSON-RPC error. Handlers live in `features/`, one module per LSP
feature, each a thin adapter: read the request, call a core function, convert the
answer. `main.py` routes methods to handlers from one table. lsprotocol types appear only in this
package; positions are converted between the client's encoding and the core's code
points in `positions.py`.
"""
