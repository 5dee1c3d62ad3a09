"""A module that starts a thread when imported: a warm runner that preloads it must refuse to fork."""
import threading
import time

threading.Thread(target=lambda: time.sleep(3600), daemon=True).start()
