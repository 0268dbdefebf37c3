"""The serial peripheral's MicroPython firmware (copy main.py and protocol.py to the Pico).

A package on the host only so the tests and the simulated device can import it unchanged.
"""
