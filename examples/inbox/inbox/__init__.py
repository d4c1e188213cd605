"""Inbox application code used by the example's tests."""
