# SPDX-License-Identifier: MIT
IMAGES_ELF :=
