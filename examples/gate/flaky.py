"""The agent of the gate's example: each turn is answered right with a set chance, like a
model at a temperature above 0. `FLAKY_AGENT_CHANGE=1` is a pull request that breaks the
refund's second turn. `FLAKY_AGENT_SEED` fixes the dice (the example's runs were made so).
"""

import os
import random

RIGHT = {
    # input: (the right answer, the chance of giving it)
    "I want my money back.": ("Refund started", 1.0),
    "How long will it take?": ("5 days", 1.0),
    "I forgot my password.": ("Reset link sent", 1.0),
    "It did not arrive.": ("Check your spam folder", 0.7),
    "When are you open?": ("9 to 5", 1.0),
    "And on Sunday?": ("Closed", 0.9),
    "Where is my parcel?": ("In transit", 0.9),
    "When will it come?": ("Tomorrow", 0.7),
    "I need an invoice.": ("Invoice sent", 1.0),
    "With my company name?": ("Updated", 1.0),
}
if os.environ.get("FLAKY_AGENT_CHANGE"):
    RIGHT["How long will it take?"] = ("5 days", 0.2)

dice = random.Random(os.environ.get("FLAKY_AGENT_SEED"))


class Agent:
    def send(self, message: str) -> str:
        answer, chance = RIGHT.get(message, ("I do not know", 0.0))
        return answer if dice.random() < chance else "Let me check"


def make_agent() -> Agent:
    return Agent()
