"""A module that takes 30 s to import: a warm runner that preloads it is stuck starting."""
import time

time.sleep(30)
