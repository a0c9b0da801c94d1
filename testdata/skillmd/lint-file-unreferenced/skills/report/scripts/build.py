import json
from lib import util
