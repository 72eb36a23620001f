"""Private helpers shared across skxor's subpackages."""
