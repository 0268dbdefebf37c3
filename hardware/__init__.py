"""Physical inputs and outputs: GPIO buttons, LEDs and buzzer (gpiozero), the serial peripheral
(pyserial) and its MicroPython firmware, simulated twins of both, and `companion doctor`.

The composition root calls :func:`hardware.wiring.attach`; nothing in here imports another adapter.
"""
