"""The reviewer: a stronger model asked STOP / CONTINUE / WAIT on ambiguous cases."""
