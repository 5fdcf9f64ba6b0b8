"""An agent for `run --agent echo:reply`: it answers with the message it was sent."""


def reply():
    class Echo:
        def send(self, message):
            return {"text": message}

    return Echo()
