# Kernel families: each family's .cu is compiled by one nvcc command per architecture (so they build
# in parallel and rebuild alone), the cubins (plus optional PTX) are packed into one fatbin, and an
# assembler stub embeds the fatbin in the library's read-only data between two hidden symbols.
#
#   asyncgemm_add_family(NAME SOURCE file.cu ARCHS 80 90 ... [PTX 80])
#
# ARCHS are the SASS targets ("90a" style names are passed through); PTX, if given, adds that
# virtual architecture as the forward-compatible fallback.  The object to link is appended to
# ASYNCGEMM_FATBIN_OBJECTS in the caller's scope.

set(ASYNCGEMM_NVCC_FLAGS -std=c++17 -O3 -lineinfo -Xptxas=-warn-spills
    -I${PROJECT_SOURCE_DIR}/csrc -I${PROJECT_SOURCE_DIR}/include
    CACHE STRING "Flags for every kernel nvcc command")
mark_as_advanced(ASYNCGEMM_NVCC_FLAGS)

function(asyncgemm_add_family NAME)
    cmake_parse_arguments(FAM "" "SOURCE;PTX" "ARCHS" ${ARGN})
    set(src ${PROJECT_SOURCE_DIR}/${FAM_SOURCE})
    set(dir ${PROJECT_BINARY_DIR}/fatbins/${NAME})
    file(MAKE_DIRECTORY ${dir})
    set(images)
    set(image_args)
    foreach(arch IN LISTS FAM_ARCHS)
        set(cubin ${dir}/${NAME}.sm_${arch}.cubin)
        add_custom_command(
            OUTPUT ${cubin}
            COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} -cubin
                    -gencode=arch=compute_${arch},code=sm_${arch}
                    ${ASYNCGEMM_NVCC_FLAGS} -MD -MF ${cubin}.d -o ${cubin} ${src}
            DEPENDS ${src}
            DEPFILE ${cubin}.d
            COMMENT "nvcc ${NAME} sm_${arch}"
            VERBATIM)
        list(APPEND images ${cubin})
        list(APPEND image_args --image3=kind=elf,sm=${arch},file=${cubin})
    endforeach()
    if(FAM_PTX)
        set(ptx ${dir}/${NAME}.compute_${FAM_PTX}.ptx)
        add_custom_command(
            OUTPUT ${ptx}
            COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} -ptx -arch=compute_${FAM_PTX}
                    ${ASYNCGEMM_NVCC_FLAGS} -MD -MF ${ptx}.d -o ${ptx} ${src}
            DEPENDS ${src}
            DEPFILE ${ptx}.d
            COMMENT "nvcc ${NAME} compute_${FAM_PTX} (PTX)"
            VERBATIM)
        list(APPEND images ${ptx})
        list(APPEND image_args --image3=kind=ptx,sm=${FAM_PTX},file=${ptx})
    endif()

    set(fatbin ${dir}/${NAME}.fatbin)
    add_custom_command(
        OUTPUT ${fatbin}
        COMMAND ${ASYNCGEMM_FATBINARY} --create=${fatbin} -64 ${image_args}
        DEPENDS ${images}
        COMMENT "fatbinary ${NAME}"
        VERBATIM)

    set(FATBIN_NAME ${NAME})
    set(FATBIN_PATH ${fatbin})
    set(stub ${dir}/${NAME}_fatbin.S)
    configure_file(${PROJECT_SOURCE_DIR}/cmake/embed_fatbin.S.in ${stub} @ONLY)
    set_source_files_properties(${stub} PROPERTIES OBJECT_DEPENDS ${fatbin})
    set(ASYNCGEMM_FATBIN_OBJECTS ${ASYNCGEMM_FATBIN_OBJECTS} ${stub} PARENT_SCOPE)
endfunction()
