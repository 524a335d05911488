"""The table generator's pure core: table documents, metrics, validity, generation.

No Django here: line of fire and hex geometry come from the rules engine.
"""
