import sys
from pathlib import Path

# The shared helpers live one level up (test/producers/producers_common.py).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
