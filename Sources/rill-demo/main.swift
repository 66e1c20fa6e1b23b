import Rill

print("rill-demo")
