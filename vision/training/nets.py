"""The two networks, in PyTorch (training only; the table runs their ONNX export).

`DiceDetector`: class-agnostic, "a die's top face is centred here" as a heat map at a
quarter of the input's resolution (CenterNet-style), with the centre's sub-cell offset, the
face's size, and a map of what obstructs the tray (a hand). A small encoder of depthwise
separable blocks down to 1/32 (a wide view: a wall, a cable or a laptop is told from a die by
its surroundings) and a light decoder back up to 1/4.

`FaceNet`: a die's top-face crop to pip classes (not a die, 1-6, another face) and a
normalised embedding (taught faces are the nearest taught photos in it).
"""

from __future__ import annotations

import torch
from torch import nn
import torch.nn.functional as F

DET_OUT = 6  # heat, dx, dy, log w, log h, obstruction
FACE_CLASSES = 8  # 0 not a die, 1..6 pips, 7 a die with another face
EMBED = 64


def _cbr(i, o, s=1, k=3):
    return nn.Sequential(nn.Conv2d(i, o, k, s, k // 2, bias=False), nn.BatchNorm2d(o),
                         nn.ReLU(inplace=True))


def _dw(i, o, s=1):
    return nn.Sequential(nn.Conv2d(i, i, 3, s, 1, groups=i, bias=False), nn.BatchNorm2d(i),
                         nn.ReLU(inplace=True), _cbr(i, o, 1, 1))


class DiceDetector(nn.Module):
    def __init__(self, w: int = 1):
        super().__init__()
        c = [16 * w, 32 * w, 48 * w, 80 * w, 112 * w]
        self.s2 = _cbr(3, c[0], 2)
        self.s4 = nn.Sequential(_dw(c[0], c[1], 2), _dw(c[1], c[1]))
        self.s8 = nn.Sequential(_dw(c[1], c[2], 2), _dw(c[2], c[2]))
        self.s16 = nn.Sequential(_dw(c[2], c[3], 2), _dw(c[3], c[3]), _dw(c[3], c[3]))
        self.s32 = nn.Sequential(_dw(c[3], c[4], 2), _dw(c[4], c[4]))
        self.l16 = _cbr(c[3], 48, 1, 1)
        self.l8 = _cbr(c[2], 48, 1, 1)
        self.l4 = _cbr(c[1], 48, 1, 1)
        self.t32 = _cbr(c[4], 48, 1, 1)
        self.m16 = _dw(48, 48)
        self.m8 = _dw(48, 48)
        self.m4 = _dw(48, 32)
        self.head = nn.Conv2d(32, DET_OUT, 1)
        with torch.no_grad():
            self.head.bias.zero_()
            self.head.bias[0] = -4.0  # rare centres: start the heat map low
            self.head.bias[5] = -4.0

    def forward(self, x):
        x = (x - 128.0) * (1.0 / 64.0)  # the runtime passes BGR 0..255
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        u = F.interpolate(self.t32(f32), scale_factor=2.0, mode="nearest")
        u = self.m16(u + self.l16(f16))
        u = F.interpolate(u, scale_factor=2.0, mode="nearest")
        u = self.m8(u + self.l8(f8))
        u = F.interpolate(u, scale_factor=2.0, mode="nearest")
        u = self.m4(u + self.l4(f4))
        return self.head(u)


class FaceNet(nn.Module):
    """40x40 BGR crop -> (8 class logits, 64-d unit embedding)."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            _cbr(3, 16), nn.MaxPool2d(2),                       # 20
            _cbr(16, 32), _cbr(32, 32), nn.MaxPool2d(2),        # 10
            _cbr(32, 64), _cbr(64, 64), nn.MaxPool2d(2),        # 5
            _cbr(64, 128), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.classes = nn.Linear(128, FACE_CLASSES)
        self.embed = nn.Linear(128, EMBED)

    def forward(self, x):
        x = (x - 128.0) * (1.0 / 64.0)
        f = self.body(x)
        e = self.embed(f)
        return self.classes(f), e / (e.norm(dim=1, keepdim=True) + 1e-6)
