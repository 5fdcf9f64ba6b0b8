"""`python -m tests.server.thread_worker_server`: the language server as `holodeck-lsp serve`
runs it, but validating on a thread of its own process (the `Worker` the server's queries
use) instead of in a worker process. For the tests whose subject is neither that process
nor its limits (a thread cannot be stopped, so `validation.timeLimit` is not kept there):
the server starts one interpreter fewer (`lsp_client.THREAD_WORKER_SERVER`).
"""

from holodeck_lsp.server.start import serve
from holodeck_lsp.server.worker import Worker

if __name__ == "__main__":
    serve(validator=Worker("holodeck-validation"))
