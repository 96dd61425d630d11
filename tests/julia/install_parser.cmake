# cmake -DNPM=npm -DPREFIX=dir -DPACKAGES="name@version;..." -P install_parser.cmake
# Installs the pinned npm packages into PREFIX/node_modules, unless exactly those versions are there
# already (a rerun of ctest then needs no network).
set(missing)
foreach(package IN LISTS PACKAGES)
    if(NOT package MATCHES "^(.+)@([^@]+)$")
        message(FATAL_ERROR "not name@version: ${package}")
    endif()
    set(manifest ${PREFIX}/node_modules/${CMAKE_MATCH_1}/package.json)
    set(wanted ${CMAKE_MATCH_2})
    set(installed "")
    if(EXISTS ${manifest})
        file(READ ${manifest} json)
        string(JSON installed ERROR_VARIABLE ignored GET "${json}" version)
    endif()
    if(NOT installed STREQUAL wanted)
        list(APPEND missing ${package})
    endif()
endforeach()
if(NOT missing)
    message(STATUS "already installed in ${PREFIX}: ${PACKAGES}")
    return()
endif()

file(MAKE_DIRECTORY ${PREFIX})
# --ignore-scripts: tree-sitter-julia's install script builds a native node addon, and only its
# .wasm grammar is used.
execute_process(
    COMMAND ${NPM} install --no-save --ignore-scripts --no-audit --no-fund --no-update-notifier
            --loglevel=error --prefix ${PREFIX} ${PACKAGES}
    RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "npm install ${PACKAGES} failed (${result}): the Julia checks need the npm registry once")
endif()
