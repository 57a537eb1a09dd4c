# Installing and packaging: what `cmake --install` puts beside the two programs, and the
# Debian package that `cpack -G DEB` makes from it. Included at the end of the top-level
# CMakeLists.txt, after every install() rule of the targets.
#
#   cmake -S . -B build/package -G Ninja -DCMAKE_BUILD_TYPE=Release -DSANDPIPER_BUILD_TESTS=OFF
#   cmake --build build/package
#   cd build/package && cpack -G DEB        # -> sandpiper_<version>-1_<arch>.deb
#
# scripts/test-deb does exactly that in the build environment, then installs the package into
# a clean Debian root and runs it. The package holds only the programs and their data: the
# tests have no install() rules, and a build without tests skips compiling them.

# The sandbox definition (Dockerfile, offline recipe, kernel), so that an installed app or user
# can build the sandbox image: docker build -t <tag> /usr/share/sandpiper/sandbox
install(DIRECTORY "${PROJECT_SOURCE_DIR}/sandbox/"
    DESTINATION share/sandpiper/sandbox
    USE_SOURCE_PERMISSIONS
    PATTERN "__pycache__" EXCLUDE
    PATTERN "*.pyc" EXCLUDE)

install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION share/doc/sandpiper RENAME copyright)

set(SANDPIPER_PACKAGE_MAINTAINER "The Sandpiper authors <maintainers@sandpiper.invalid>"
    CACHE STRING "The Maintainer field of the Debian package")

set(CPACK_PACKAGE_NAME sandpiper)
set(CPACK_PACKAGE_VENDOR "The Sandpiper authors")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "Sandpiper is a desktop chat application for language models that compute answers
instead of guessing them. The model calls tools: it runs Python in a hardened Docker
container per conversation (matplotlib figures appear inline), searches the web,
fetches pages and draws interactive charts. A side panel shows every piece of code
that ran and what it printed. It works with OpenAI, Ollama, llama.cpp, LM Studio or
any OpenAI-compatible endpoint. sandpiper-cli offers the same engine in a terminal.")
set(CPACK_PACKAGE_CONTACT "${SANDPIPER_PACKAGE_MAINTAINER}")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)

set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${SANDPIPER_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Libraries the programs link come from dpkg-shlibdeps. Qt loads some pieces as plugins at run
# time, which shlibdeps cannot see: the SQLite driver (the conversation store) and the SVG
# icon engine (the window icon).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite, qt6-svg-plugins")
# Python runs in Docker (or podman's docker-compatible CLI); without it the app still chats.
# Wayland sessions need Qt's Wayland platform plugin; X11 is in Qt's base packages.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "docker.io | docker-ce | podman-docker, qt6-wayland, qt6-translations-l10n")
# API keys live in the Secret Service; the offline sandbox image recipe uses mmdebstrap.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "gnome-keyring | kwalletmanager | keepassxc, mmdebstrap")

include(CPack)
