print("check")
