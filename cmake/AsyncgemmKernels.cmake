# Kernel families.  A family lists its kernels once, in csrc/kernels/<family>/<family>_kernels.def,
# one line per kernel written as a macro call, MACRO(arg, arg, ...).  The planner's kernel table is
# that file read through the macro (csrc/plan/<family>_kernels.cpp); here the same lines are grouped
# into translation units (the lines that share their first GROUP arguments: one input type and tile
# configuration), and each unit is
#   - written to <build>/kernels/<family>/<unit>.cu: the family's kernel header, then its lines;
#   - compiled by cicc to PTX once per virtual architecture, and by ptxas to SASS once per real
#     architecture from the highest virtual one at or below it, each step its own ninja edge;
#   - packed with fatbinary into a fatbin of its own, which an assembler stub embeds in the
#     library's read-only data (runtime/fatbins.h), and which the runtime loads as a CUlibrary.
# A fatbin per unit rather than one per family: SASS of several translation units can only be
# merged by nvlink, which takes relocatable device code, and there ptxas ignores setmaxnreg (C7504).
#
#   asyncgemm_add_family(NAME <family> ENUM <Family enumerator> LIST <.def> HEADER <kernel header>
#                        MACRO <macro> GROUP <n> VIRTUAL <archs> SASS <archs> [PTX]
#                        [ARCH_BRANCHING <unit keys> | ARCH_BRANCHING ALL])
#
# VIRTUAL and SASS take architecture numbers ("80", "90a"); an "a" architecture is compiled from its
# own virtual architecture only (its code runs on that major.minor alone).  A unit is compiled from
# the lowest virtual architecture alone unless its key (its GROUP arguments joined by "_") is in
# ARCH_BRANCHING (or ARCH_BRANCHING is ALL): code that branches on __CUDA_ARCH__ needs each virtual
# architecture it branches for.  PTX also embeds the PTX of the lowest virtual architecture, for
# GPUs newer than every SASS one.  Each call appends to ASYNCGEMM_FATBIN_OBJECTS (the stubs to
# link) and ASYNCGEMM_FATBIN_UNITS ("<enum>:<unit>" pairs).
# asyncgemm_write_unit_table(<file>) then writes the C++ table of every embedded unit.

option(ASYNCGEMM_PROFILE "Kernels with line information for profilers (nvcc -lineinfo)" OFF)
set(ASYNCGEMM_NVCC_FLAGS -std=c++17 -O3 -I${PROJECT_SOURCE_DIR}/csrc -I${PROJECT_SOURCE_DIR}/include)
if(ASYNCGEMM_PROFILE)
    list(APPEND ASYNCGEMM_NVCC_FLAGS -lineinfo)
endif()
set(ASYNCGEMM_PTXAS_FLAGS -Xptxas=-warn-spills)

# The number of an architecture name: "90a" -> 90.
function(asyncgemm_arch_number arch out)
    string(REGEX REPLACE "[a-z]+$" "" number "${arch}")
    set(${out} ${number} PARENT_SCOPE)
endfunction()

# The virtual architecture whose PTX ptxas compiles to SASS for `sass`.
function(asyncgemm_virtual_for sass virtuals out)
    if(sass MATCHES "[a-z]$")
        if(NOT sass IN_LIST virtuals)
            message(FATAL_ERROR "sm_${sass} needs compute_${sass} among the family's VIRTUAL architectures")
        endif()
        set(${out} ${sass} PARENT_SCOPE)
        return()
    endif()
    asyncgemm_arch_number(${sass} target)
    set(best "")
    set(best_number -1)
    foreach(virtual IN LISTS virtuals)
        asyncgemm_arch_number(${virtual} number)
        if(NOT virtual MATCHES "[a-z]$" AND number LESS_EQUAL target AND number GREATER best_number)
            set(best ${virtual})
            set(best_number ${number})
        endif()
    endforeach()
    if(best STREQUAL "")
        message(FATAL_ERROR "no virtual architecture at or below sm_${sass}")
    endif()
    set(${out} ${best} PARENT_SCOPE)
endfunction()

# The kernel lines of a list file, each as "args" with the macro name and parentheses removed.
function(asyncgemm_read_kernel_list list macro out)
    file(STRINGS ${list} lines REGEX "^${macro}\\(")
    set(kernels)
    foreach(line IN LISTS lines)
        if(NOT line MATCHES "^${macro}\\(([^()]*)\\)[ \t]*$")
            message(FATAL_ERROR "${list}: not a kernel line: ${line}")
        endif()
        string(REPLACE " " "" args "${CMAKE_MATCH_1}")
        list(APPEND kernels "${args}")
    endforeach()
    if(NOT kernels)
        message(FATAL_ERROR "${list} lists no ${macro} lines")
    endif()
    set(${out} ${kernels} PARENT_SCOPE)
endfunction()

function(asyncgemm_add_family)
    cmake_parse_arguments(FAM "PTX" "NAME;ENUM;LIST;HEADER;MACRO;GROUP" "VIRTUAL;SASS;ARCH_BRANCHING" ${ARGN})
    set(list_file ${PROJECT_SOURCE_DIR}/${FAM_LIST})
    set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${list_file})
    asyncgemm_read_kernel_list(${list_file} ${FAM_MACRO} kernels)

    # Units in list order, each with its kernel lines.
    set(units)
    foreach(args IN LISTS kernels)
        string(REPLACE "," ";" fields "${args}")
        list(SUBLIST fields 0 ${FAM_GROUP} key)
        list(JOIN key "_" key)
        set(unit ${FAM_NAME}_${key})
        if(NOT unit IN_LIST units)
            list(APPEND units ${unit})
            set(lines_${unit})
            set(key_${unit} ${key})
        endif()
        string(REPLACE "," ", " spaced "${args}")
        string(APPEND lines_${unit} "${FAM_MACRO}(${spaced})\n")
    endforeach()

    list(GET FAM_VIRTUAL 0 lowest_virtual)
    set(dir ${PROJECT_BINARY_DIR}/kernels/${FAM_NAME})
    file(MAKE_DIRECTORY ${dir})
    set(objects ${ASYNCGEMM_FATBIN_OBJECTS})
    set(unit_pairs ${ASYNCGEMM_FATBIN_UNITS})
    foreach(unit IN LISTS units)
        set(source ${dir}/${unit}.cu)
        file(CONFIGURE OUTPUT ${source} CONTENT
             "// Generated from ${FAM_LIST} by cmake/AsyncgemmKernels.cmake: do not edit.\n#include \"${FAM_HEADER}\"\n\n${lines_${unit}}")

        set(image_args)
        set(images)
        set(virtuals ${lowest_virtual})
        if(key_${unit} IN_LIST FAM_ARCH_BRANCHING OR FAM_ARCH_BRANCHING STREQUAL "ALL")
            set(virtuals ${FAM_VIRTUAL})
        endif()
        foreach(virtual IN LISTS virtuals)
            set(ptx ${dir}/${unit}.compute_${virtual}.ptx)
            add_custom_command(
                OUTPUT ${ptx}
                COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} -ptx -gencode=arch=compute_${virtual},code=compute_${virtual}
                        ${ASYNCGEMM_NVCC_FLAGS} -MD -MF ${ptx}.d -o ${ptx} ${source}
                DEPENDS ${source}
                DEPFILE ${ptx}.d
                COMMENT "cicc ${unit} compute_${virtual}"
                VERBATIM)
        endforeach()
        foreach(sass IN LISTS FAM_SASS)
            asyncgemm_virtual_for(${sass} "${virtuals}" virtual)
            set(ptx ${dir}/${unit}.compute_${virtual}.ptx)
            set(cubin ${dir}/${unit}.sm_${sass}.cubin)
            add_custom_command(
                OUTPUT ${cubin}
                COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} -cubin -arch=sm_${sass} ${ASYNCGEMM_PTXAS_FLAGS} -o ${cubin} ${ptx}
                DEPENDS ${ptx}
                COMMENT "ptxas ${unit} sm_${sass}"
                VERBATIM)
            asyncgemm_arch_number(${sass} number)
            list(APPEND images ${cubin})
            list(APPEND image_args --image3=kind=elf,sm=${number},file=${cubin})
        endforeach()
        if(FAM_PTX)
            set(ptx ${dir}/${unit}.compute_${lowest_virtual}.ptx)
            asyncgemm_arch_number(${lowest_virtual} number)
            list(APPEND images ${ptx})
            list(APPEND image_args --image3=kind=ptx,sm=${number},file=${ptx})
        endif()

        set(fatbin ${dir}/${unit}.fatbin)
        add_custom_command(
            OUTPUT ${fatbin}
            COMMAND ${ASYNCGEMM_FATBINARY} --create=${fatbin} -64 ${image_args}
            DEPENDS ${images}
            COMMENT "fatbinary ${unit}"
            VERBATIM)

        set(FATBIN_NAME ${unit})
        set(FATBIN_PATH ${fatbin})
        set(stub ${dir}/${unit}_fatbin.S)
        configure_file(${PROJECT_SOURCE_DIR}/cmake/embed_fatbin.S.in ${stub} @ONLY)
        set_source_files_properties(${stub} PROPERTIES OBJECT_DEPENDS ${fatbin})
        list(APPEND objects ${stub})
        list(APPEND unit_pairs "${FAM_ENUM}:${unit}")
    endforeach()
    set(ASYNCGEMM_FATBIN_OBJECTS ${objects} PARENT_SCOPE)
    set(ASYNCGEMM_FATBIN_UNITS ${unit_pairs} PARENT_SCOPE)
endfunction()

# The table of embedded units (runtime/fatbins.h) as a C++ source file.
function(asyncgemm_write_unit_table file)
    set(symbols "")
    set(entries "")
    foreach(pair IN LISTS ASYNCGEMM_FATBIN_UNITS)
        string(REPLACE ":" ";" pair "${pair}")
        list(GET pair 0 family)
        list(GET pair 1 unit)
        string(APPEND symbols
               "extern const unsigned char asyncgemm_fatbin_${unit}_begin[] __attribute__((visibility(\"hidden\")));\n"
               "extern const unsigned char asyncgemm_fatbin_${unit}_end[] __attribute__((visibility(\"hidden\")));\n")
        string(APPEND entries
               "    {Family::${family}, \"${unit}\", asyncgemm_fatbin_${unit}_begin, asyncgemm_fatbin_${unit}_end},\n")
    endforeach()
    file(CONFIGURE OUTPUT ${file} CONTENT
"// Generated by cmake/AsyncgemmKernels.cmake: every kernel unit's fatbin embedded in the library.
#include \"runtime/fatbins.h\"

extern \"C\" {
${symbols}}

namespace asyncgemm {

const EmbeddedUnit kEmbeddedUnits[] = {
${entries}};
const size_t kEmbeddedUnitCount = sizeof(kEmbeddedUnits) / sizeof(kEmbeddedUnits[0]);

}  // namespace asyncgemm
")
endfunction()
