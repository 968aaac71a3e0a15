"""Delivery: mail in and out, the website and the public record."""
