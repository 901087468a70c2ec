"""Who is an admin: a checked secret, a services account, a hostmask, or vouched op status; never a nick."""

from __future__ import annotations

from bazaarbot.config import AdminPolicy
from bazaarbot.messages import User
from bazaarbot.pipeline.admins import NO_ADMINS, is_admin

POLICY = AdminPolicy(accounts=("root",), masks=("*!*@admin.example",), ops_are_admins=False)


def test_a_bare_nick_is_never_an_admin_even_one_named_like_the_admin_account():
    assert not is_admin(POLICY, User("root"))


def test_a_services_account_in_the_policy_is_an_admin_in_any_case():
    assert is_admin(POLICY, User("someone", account="ROOT"))


def test_a_hostmask_matching_a_pattern_is_an_admin():
    assert is_admin(POLICY, User("x", mask="x!~x@ADMIN.example"))
    assert not is_admin(POLICY, User("x", mask="x!~x@admin.example.evil"))


def test_channel_operators_are_admins_only_where_the_policy_trusts_them():
    op = User("op", is_op=True)
    assert not is_admin(POLICY, op)
    assert is_admin(AdminPolicy(ops_are_admins=True), op)


def test_a_secret_the_transport_checked_makes_an_admin_on_any_network():
    assert is_admin(NO_ADMINS, User("web", is_admin=True))
    assert not is_admin(NO_ADMINS, User("web", account="root", is_op=True))
