"""Who is an admin on a network: never a bare nick, only what a transport or the config vouches for."""

from __future__ import annotations

import fnmatch

from bazaarbot.config import AdminPolicy
from bazaarbot.messages import User

#: a network without a configured policy: nobody but a transport-checked secret is an admin
NO_ADMINS = AdminPolicy(ops_are_admins=False)


def is_admin(policy: AdminPolicy, user: User) -> bool:
    """Admin by a secret the transport checked, services account, hostmask pattern, or vouched op status."""
    if user.is_admin:
        return True
    if user.account and user.account.lower() in policy.accounts:
        return True
    if user.mask and any(fnmatch.fnmatchcase(user.mask.lower(), m.lower()) for m in policy.masks):
        return True
    return policy.ops_are_admins and user.is_op
