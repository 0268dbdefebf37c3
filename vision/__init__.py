"""Camera dice recognition: find the dice in the tray, read their faces, watch for rolls.

The service wires ``vision.reader.Reader``, ``vision.settle.SettleDetector``,
``vision.sources.open_source`` and ``vision.watcher.CameraWatcher``; the CLI is
``vision.cli.run``. See docs/vision.md.
"""
