"""apimachinery's ``pkg/util/managedfields`` (and its ``internal``): the field manager of
server-side apply.
"""
