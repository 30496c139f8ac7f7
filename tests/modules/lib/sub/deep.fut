-- Library: imports a file from the parent directory with "..".

import "../vec3"

def origin : vec3 = {x = 0, y = 0, z = 0}
def unit_x : vec3 = {x = 1, y = 0, z = 0}
