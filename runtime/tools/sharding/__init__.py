"""Controllers sharded across replicas, coordinated by Leases on the cluster and nothing else.

N replicas of a controller split the objects of a resource by rendezvous hashing
(``assignment``) over the live members, each member holding its own Lease (``membership``).
The elected shard leader labels each object with its owner (``labeller``); each replica's
informer selects its own label, so its cache, memory and watch traffic are its shard's, and a
gate keeps a key from starting on two replicas at once through moves, deaths and partitions
(``gate``, ``replica``). ``ShardedController`` wires them (``controller``);
``AsyncShardedController`` runs reconciles as coroutines on an asyncio loop (``async_controller``).

Guarantees and their limits: docs/sharding.md.
"""

from kgen.runtime.tools.sharding.assignment import owner
from kgen.runtime.tools.sharding.async_controller import AsyncShardedController
from kgen.runtime.tools.sharding.controller import ShardedController
from kgen.runtime.tools.sharding.gate import Decision, ShardGate
from kgen.runtime.tools.sharding.labeller import Labeller, plan_moves
from kgen.runtime.tools.sharding.membership import Members, shard_label
from kgen.runtime.tools.sharding.replica import ShardReplica

__all__ = ["AsyncShardedController", "Decision", "Labeller", "Members", "ShardGate", "ShardReplica", "ShardedController", "owner",
           "plan_moves", "shard_label"]
