print("changeset")
