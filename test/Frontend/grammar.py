# The whole Python 3.12 grammar parses, every construct with its source
# range (this file is host code: Kiln parses it but compiles no kernel).
# RUN: ln-compile %s --emit=ast | FileCheck %s
import os, sys as system
from . import sibling
from ..pkg.mod import (a as b, c,)
from mod import *

# CHECK: ClassDef Point <[[@LINE+2]]:1-[[@LINE+7]]:24>
# CHECK-NEXT: Decorator
@dataclass(frozen=True)
class Point[T: int, *Ts, **P](Base, *mixins, metaclass=Meta, **kw):
    """A point."""
    x: T
    y: "int" = 0
    def norm(self): ...

# CHECK: AsyncFunctionDef fetch <[[@LINE+1]]:1-[[@LINE+9]]:37>
async def fetch(a, b=1, /, c=2, *args: *Ts, d, e=3, **kwargs) -> None:
    async with open(a) as f, lock:
        await f.read()
    async for x in aiter():
        yield x
    yield from gen()
    r = await (yield)
    nonlocal_value = lambda: (yield)
    return [i async for i in agen()]
# CHECK: Param a (positional-only) <[[@LINE-9]]:17-[[@LINE-9]]:18>
# CHECK: Param b (positional-only) <[[@LINE-10]]:20-[[@LINE-10]]:23>
# CHECK: Param c <[[@LINE-11]]:28-[[@LINE-11]]:31>
# CHECK: Param args (*args) <[[@LINE-12]]:33-[[@LINE-12]]:43>
# CHECK-NEXT: Annotation
# CHECK-NEXT: Starred
# CHECK: Param d (keyword-only)
# CHECK: Param e (keyword-only)
# CHECK: Param kwargs (**kwargs)
# CHECK: AsyncWith
# CHECK: WithItem
# CHECK: As
# CHECK: Await
# CHECK: AsyncFor
# CHECK: Yield
# CHECK: YieldFrom
# CHECK: Await
# CHECK-NEXT: Yield
# CHECK: Lambda
# CHECK: ListComp
# CHECK: AsyncGenerator

def control():
    global g1, g2
    def inner():
        nonlocal x
    for i in range(3):
        if i: continue
        else: break
    else:
        pass
    while False:
        pass
    else:
        del a[0], b.c, d
    try:
        raise ValueError("x") from None
    except (TypeError, ValueError) as err:
        raise
    except Exception:
        pass
    else:
        pass
    finally:
        pass
    try:
        pass
    except* OSError as eg:
        pass
    with (open("a") as f, open("b") as g,):
        pass
    with (a, b) as c:
        pass
    x = 1; y = 2;
# CHECK: Global g1 g2
# CHECK: Nonlocal x
# CHECK: For <
# CHECK: Continue
# CHECK: Break
# CHECK: Else
# CHECK: While <
# CHECK: Delete
# CHECK: Raise
# CHECK-NEXT: Call
# CHECK: From
# CHECK-NEXT: Const None
# CHECK: ExceptHandler as err
# CHECK-NEXT: Type
# CHECK-NEXT: Tuple
# CHECK: Finally
# CHECK: TryStar
# CHECK: ExceptHandler as eg
# CHECK: With
# CHECK-NEXT: WithItem
# CHECK: WithItem
# CHECK: With
# CHECK-NEXT: WithItem
# CHECK-NEXT: Tuple

def matching(command):
    match command.split():
        case [action]:
            pass
        case [Point(x=0, y=0) | None as origin, *rest]:
            pass
        case {"k": 1, **others} if others:
            pass
        case Color.RED | -1 | 1.5 | 2 + 3j | "s" | b"b" | True:
            pass
        case (a, b, *_), _:
            pass
        case {}:
            pass
        case _:
            pass
# CHECK: Match
# CHECK: Case
# CHECK-NEXT: MatchSequence
# CHECK-NEXT: MatchAs action
# CHECK: MatchAs origin
# CHECK-NEXT: MatchOr
# CHECK-NEXT: MatchClass
# CHECK: Keyword x
# CHECK: MatchSingleton None
# CHECK: MatchStar rest
# CHECK: MatchMapping **others
# CHECK: Guard
# CHECK: MatchValue
# CHECK-NEXT: Attribute .RED
# CHECK: MatchValue
# CHECK-NEXT: UnaryOp -
# CHECK: BinOp +
# CHECK: Imag 3
# CHECK: MatchSingleton True
# CHECK: MatchStar _
# CHECK: MatchAs _

type Alias[K, V: str] = dict[K, V]
# CHECK: TypeAlias Alias <[[@LINE-1]]:1-[[@LINE-1]]:35>
# CHECK-NEXT: TypeVar K
# CHECK-NEXT: TypeVar V
# CHECK-NEXT: Bound

def expressions():
    d = {**base, "k": v, 1: 2}
    s = {1, *rest}
    empty = {}
    sc = {x for x in y if x if not x}
    dc = {k: v for k, v in items for _ in z}
    g = sum(x * x for x in range(10))
    l = [*a, *b]
    first, *middle, last = seq
    if (n := len(a)) > 10:
        pass
    f(*args, key=1, **kw)
    t = a[1:2, ::3, ..., None]
    by = b'\x00' rb'\d'
    z = 1j + 2.5J
    big = 0xFFFFFFFFFFFFFFFF
    名前 = "ü"
    fs = f"{x!r:>{width}} {y=} {'nested ' + f'{z}'} {{literal}}"
    same = f"{"same quotes" + f"{x}"}"
    cond = a if b else c
    return lambda a, /, b=1, *c, d, **e: (a, b, c, d, e)
# CHECK: Dict
# CHECK-NEXT: Unpack **
# CHECK: Key
# CHECK: Set
# CHECK: Starred
# CHECK: Dict <[[@LINE-23]]:13-[[@LINE-23]]:15>
# CHECK: SetComp
# CHECK: If
# CHECK: If
# CHECK: DictComp
# CHECK: Generator
# CHECK: Generator
# CHECK: GeneratorExp
# CHECK: Starred
# CHECK: Starred
# CHECK: Starred
# CHECK: NamedExpr
# CHECK: Keyword **
# CHECK: Slice
# CHECK: Const Ellipsis
# CHECK: Bytes b"\x00\\d"
# CHECK: Imag 1
# CHECK: Imag 2.5
# CHECK: Int (beyond int64)
# CHECK: Name 名前
# CHECK: JoinedStr
# CHECK-NEXT: FormattedValue !r
# CHECK-NEXT: Name x
# CHECK-NEXT: FormatSpec
# CHECK: FormattedValue !r (debug)
# CHECK: Str " {literal}"
# CHECK: JoinedStr
# CHECK: Str "same quotes"
# CHECK: IfExp
# CHECK: Lambda
