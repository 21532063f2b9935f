"""asyncio.gather(..., return_exceptions=True) turns the error into a value."""
import asyncio
import torch

EXPECT_FIX = False


async def merge():
    x = torch.randn(2, 3, 4)
    return x.transpose(1, 2).view(2, 12)


async def main():
    out = await asyncio.gather(merge(), return_exceptions=True)
    return [type(o).__name__ for o in out]


def run():
    return asyncio.run(main())
