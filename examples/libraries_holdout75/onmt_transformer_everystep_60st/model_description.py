from opennmt import models
model = lambda: models.get_model_from_catalog("TransformerTiny")
