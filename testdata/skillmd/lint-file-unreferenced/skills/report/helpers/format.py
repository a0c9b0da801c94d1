def table(): pass
